import pickle
import lz_copyreg
p = pickle.loads(pickle.dumps(lz_copyreg.Point(1, 2)))
print(p.x, p.y)
