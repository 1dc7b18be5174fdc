"""Front-end files are vendored, pinned by name and checksum, and plotly.js
matches what the Python plotly package targets."""

import hashlib
from pathlib import Path

import plotly.offline

VENDOR = Path(__file__).resolve().parents[1] / "static" / "vendor"
CHECKSUMS = {
    "htmx-4.0.1.min.js": "a0abb04f2f45a1f89d1d4844023245537e5e6014c87b144553e0607b4cc32130",
    "plotly-basic-4.1.1.min.js": "99784e3abfb07b142a15e521a439e6d9addceadb3f79553fd24c72774f0649ba",
}


def test_vendored_files_match_their_recorded_checksums():
    for name, digest in CHECKSUMS.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name
        assert digest in (VENDOR / "README.md").read_text()


def test_the_plotly_bundle_is_the_version_python_plotly_targets():
    version = plotly.offline.get_plotlyjs_version()
    bundle = VENDOR / f"plotly-basic-{version}.min.js"
    assert bundle.exists()
    assert f"v{version}" in bundle.read_text()[:200]


def test_htmx_is_the_version_in_its_file_name():
    assert 'version="4.0.1"' in (VENDOR / "htmx-4.0.1.min.js").read_text()
