import lz_dispatch
print(lz_dispatch.render(lz_dispatch.Circle()))
