import eco

try:
    eco.find_tool("gs")
except eco.ToolMissing:
    HAVE_GS = False
