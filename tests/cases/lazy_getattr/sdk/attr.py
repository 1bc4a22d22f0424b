# R22: an attribute read through the loader.
import sdk

H = sdk.Helper
