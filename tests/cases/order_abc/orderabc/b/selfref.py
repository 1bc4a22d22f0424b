# R2: while this module runs it is not yet an attribute of orderabc.b (bound only after it finishes).
import orderabc.b.selfref  # R4: re-importing a running module is a no-op and raises nothing

ME = orderabc.b.selfref  # AttributeError: orderabc.b has no attribute 'selfref' yet
