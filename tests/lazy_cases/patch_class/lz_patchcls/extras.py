from .model import Model

def _describe(self):
    return 'model with extras'

Model.describe = _describe
