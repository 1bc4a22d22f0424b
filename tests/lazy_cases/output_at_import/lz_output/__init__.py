from .banner import VERSION
