import mgok

V = mgok.__version_info__
