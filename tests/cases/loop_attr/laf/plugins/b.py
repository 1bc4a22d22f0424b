from laf import VALUE
