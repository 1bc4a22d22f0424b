from ef._utils import try_import

zstd = try_import("importsafe_absent_module")  # not installed: no spec, None
json = try_import("json")  # outside the analysed code: assumed to run fine
plug = try_import("ef.plug")
READY = True
