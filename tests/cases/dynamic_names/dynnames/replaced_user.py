import dynnames.replaced as r
from dynnames.replaced import anything

X = r.whatever + anything
