from lh import nothing_here
