"""The comparison of a golden fixture with the file its generator would write now (the gradient fixtures)."""


def same_json(a, b, tol: float, path: str = "") -> None:
    """``a`` and ``b`` are the same JSON, floats within ``tol`` (relative above 1): inputs rounded to 6 decimals come
    out identical; outputs may differ in the last bits between PyTorch versions."""
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), path
        assert abs(a - b) <= tol * max(1.0, abs(b)), f"{path}: {a} != {b}"
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), path
        for k in a:
            same_json(a[k], b[k], tol, f"{path}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            same_json(x, y, tol, f"{path}[{i}]")
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"
