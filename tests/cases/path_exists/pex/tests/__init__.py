from pathlib import Path

# as matplotlib.tests: the test data is not installed, so the guard fires
if not (Path(__file__).parent / "baseline_images").exists():
    raise OSError("The baseline image directory does not exist.")
