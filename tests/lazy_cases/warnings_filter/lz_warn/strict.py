import warnings

warnings.filterwarnings('error', category=DeprecationWarning, module='lz_warn')
