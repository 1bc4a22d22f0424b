from ifmerge.setting import SAME

if SAME == "one":  # decided: both branches left "one"
    from ifmerge.cyc_same import VALUE
