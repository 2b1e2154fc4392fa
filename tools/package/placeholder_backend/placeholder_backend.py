"""PEP 517 backend of the repository root's pyproject.toml: builds an empty wheel
(pre_commit_placeholder_package 0.0.0), so that pre-commit's `pip install .` of this repository
succeeds offline and installs nothing; the hook's real dependency is the torchlint wheel."""
import base64
import hashlib
import os
import zipfile

NAME, VERSION = "pre_commit_placeholder_package", "0.0.0"
TAG = "py3-none-any"
_DIST_INFO = "%s-%s.dist-info" % (NAME, VERSION)
_METADATA = "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (NAME, VERSION)


def _hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    d = os.path.join(metadata_directory, _DIST_INFO)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w") as f:
        f.write(_METADATA)
    return _DIST_INFO


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = "%s-%s-%s.whl" % (NAME, VERSION, TAG)
    files = {
        _DIST_INFO + "/METADATA": _METADATA.encode(),
        _DIST_INFO + "/WHEEL": ("Wheel-Version: 1.0\nGenerator: placeholder_backend\nRoot-Is-Purelib: true\n"
                                "Tag: %s\n" % TAG).encode(),
    }
    record = "".join("%s,%s,%d\n" % (n, _hash(d), len(d)) for n, d in files.items()) + _DIST_INFO + "/RECORD,,\n"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w") as z:
        for n, d in files.items():
            z.writestr(n, d)
        z.writestr(_DIST_INFO + "/RECORD", record)
    return name


build_editable = build_wheel
