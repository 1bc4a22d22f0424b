import ecb

try:
    ecb.find_tool("gs")  # bare mode: ecb's __init__ never ran
except ecb.ToolMissing:
    HAVE_GS = False
