from cf.release import RELEASE

BACK = RELEASE
