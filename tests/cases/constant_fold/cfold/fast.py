from cfold.mode import NAME

SPEED = NAME
