"""Package discovery only (everything else is in pyproject.toml).

rules/, templates/ and db/ sit at the top of the repository but install as
pbem.rules, pbem.templates and pbem.db; pyproject.toml alone cannot combine
automatic discovery with that mapping.

Their folders are found as namespace packages: a data folder such as
templates/common/ or rules/bismarck/data/ has no ``__init__.py``, and a folder
that is not a package gets no package data, so a built wheel would lack its
templates and tables (an editable install hides that: it reads the checkout).
"""
from setuptools import find_namespace_packages, find_packages, setup

MAPPED = {"pbem.rules": "rules", "pbem.templates": "templates", "pbem.db": "db"}
NOT_PACKAGES = ["__pycache__", "*.__pycache__", ".*", "*..*"]

packages = find_packages(include=["pbem", "pbem.*"])
for name, folder in MAPPED.items():
    packages += [name] + [f"{name}.{sub}" for sub in find_namespace_packages(folder, exclude=NOT_PACKAGES)]

setup(packages=packages)
