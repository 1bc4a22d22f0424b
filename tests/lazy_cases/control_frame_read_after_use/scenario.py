import lz_frames_ctl.shapes as shapes
print(type(shapes.union).__name__, len(shapes.union.funcs))
