"""The launcher (bin/hooktui), and the build step that names an editable install's tree.

bin/hooktui is a shell script and a Python script in one file. The shell
step finds the Python beside it (a venv's, or pipx's and uv's through the
link) and starts it: pip cannot put flags on a `#!` line. `hooktui tap` runs
on every tool call, in the hook's environment, so it starts isolated (`-I`:
no PYTHONPATH, PYTHONHOME, PYTHONVERBOSE... meant for the hook, no cwd on
sys.path), without `site` (`-S`: most of Python's start-up) and in UTF-8
mode (`-X utf8`: no decoding through the locale). The shell leaves the
environment alone but for what shells add (PWD when the caller gave none or a
stale one, SHLVL where /bin/sh is bash); the line `install` writes starts
`<python> -I -S -X utf8 bin/hooktui tap` itself and skips the shell step.

Python then reads and compiles the whole file on every call (a script has no
cached bytecode), at about 75 instructions a byte even for comments and more
for each statement: hence the launcher's few words. The tap's path is its last
statement: the venv's site-packages, then boot.py there, loaded from its
cached bytecode (boot.py says the rest). Anything else (other commands, a
package elsewhere, a boot.py that will not load) takes GENERAL, compiled only
then: the usual imports, with `site` if the tap started without it, and with
no package at all the tap still runs the hook bare so that no guard fails open.

The build step (pyproject's `cmdclass`): in an editable install the package
is not in site-packages, and the launcher would need `site` and setuptools'
finder (about 2M instructions of compiling and parsing) on every call to find
the source tree. So when the scripts are built for an editable install, the
launcher's path to boot.py (site-packages/hooktui/...) is written as this
tree's boot.py instead; boot.py takes the tree from its own path. A regular
install's launcher is copied unchanged (byte for byte: any more text in it
costs the tap on every call). A tree that moves or is deleted later fails the
launcher's load of boot.py from there, and GENERAL takes over (`site`, the
finder, and the hook run bare if the tree is gone for good).
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
