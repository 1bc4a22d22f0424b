def use(obj):
    return obj.run()
