NAMES = ['base']
