import lz_frames_other.shapes as shapes
print(shapes.intersect.__name__, type(shapes.union).__name__)
