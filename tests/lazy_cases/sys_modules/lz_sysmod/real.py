NAME = 'real'
