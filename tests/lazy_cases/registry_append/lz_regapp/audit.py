from .hooks import HOOKS

def audit(event):
    return 'audit:' + event

HOOKS.append(audit)
