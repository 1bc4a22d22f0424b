from lel.in_try import T

B = T
