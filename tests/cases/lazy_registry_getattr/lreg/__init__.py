from .registry import R
from .consts import Pi

PI = R.Pi  # eagerly consts ran and filed Pi; lazily nothing has read Pi yet
