import ecf

try:
    ecf.find_tool("gs")  # AttributeError: ecf is partially initialized
except ecf.ToolMissing:  # evaluated to match it: raises AttributeError itself
    HAVE_GS = False
