"""A build step (pyproject's `cmdclass`): an editable install's launcher names its tree.

`hooktui tap` runs on every tool call. In an editable install its package is
not in site-packages, and the launcher (bin/hooktui, started without `site`)
would have to read setuptools' editable finder on each call to find the
source tree: about 2M instructions of compiling and parsing. So when the
scripts are built for an editable install, the launcher's path to boot.py
(site-packages/hooktui/...) is written as this tree's boot.py instead; boot.py
takes the tree from its own path. A regular install's launcher is copied
unchanged (byte for byte: any more text in it costs the tap on every call). A
tree that moves or is deleted later fails the launcher's load of boot.py from
there, and the launcher falls back to the finder, then to running the hook
bare.
"""

import os

from setuptools.dist import Distribution

build_scripts = Distribution().get_command_class("build_scripts")  # distutils', wherever it is

# The source tree: this file is <tree>/tap/hotpath/launcher_build.py. Never imported by
# hooktui itself; setuptools loads it from this file while it builds.
HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOOT = 'TAP + "/hooktui/tap/hotpath/boot.py"'  # in bin/hooktui


class BuildScripts(build_scripts):
    editable_mode = False  # set by setuptools' editable_wheel on every build step that has it

    def run(self):
        super().run()
        if not self.editable_mode:
            return
        launcher = os.path.join(self.build_dir, "hooktui")
        with open(launcher, encoding="utf-8") as f:
            text = f.read()
        if text.count(BOOT) != 1:  # the launcher changed: say so, loudly
            raise RuntimeError(f"{launcher}: not one {BOOT} to write this tree's path in")
        with open(launcher, "w", encoding="utf-8") as f:
            f.write(text.replace(BOOT, repr(HERE + "/tap/hotpath/boot.py")))
