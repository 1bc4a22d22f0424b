import mg

V = mg.__version_info__
