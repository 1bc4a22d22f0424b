from sdf.loader import DONE
