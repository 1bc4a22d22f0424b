from ccu import VALUE
