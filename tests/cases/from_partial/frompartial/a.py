# R5: imports b before defining X; b's `from frompartial.a import X` then finds a half-built module.
import frompartial.b

X = "x from a"
