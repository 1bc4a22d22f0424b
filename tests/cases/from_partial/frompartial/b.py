# R5: `from M import n` against a partially initialised M fails; b imported first works (a completes).
from frompartial.a import X

Y = X
