from ifmerge.setting import MODE

if MODE == "plain":  # what CPython runs here, unless argv is long
    from ifmerge.cyc_mode import VALUE
