HOOKS = []

def run_hooks(event):
    return [hook(event) for hook in HOOKS]
