from .boot import BOOT
