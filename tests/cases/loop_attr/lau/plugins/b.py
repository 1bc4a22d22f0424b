from lau import VALUE
