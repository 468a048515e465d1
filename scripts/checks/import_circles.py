"""Import circles among the project's Python files, for layering_check.py (standard library only).

Every .py file of the tree (hidden folders, __pycache__ and build trees, folders with a CMakeCache.txt, not
read) is parsed with ast; each import, those inside functions included, is resolved to a file of the tree as
Python would find it for that file: relative to its package for `from . import x`, else in the file's own
folder (where a script run by path finds its neighbours), else under each import root (scripts/, where every
entry script puts itself: docs/architecture.md, "scripts/"). An import that resolves to no file of the tree
is the standard library's or a third party's and is left out. A circle is a strongly connected set of two or
more files; each is one line, `a.py -> b.py -> a.py`.
"""

import ast
import os


class UnparsableFile(Exception):
    """A .py file of the tree that is not Python: its path, line and the parser's message."""


def python_files(repo):
    """Paths relative to repo of every .py file of the tree, sorted."""
    found = []
    for folder, dirs, files in os.walk(repo, onerror=_raise):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__" and
                         not os.path.isfile(os.path.join(folder, d, "CMakeCache.txt")))
        found += [os.path.relpath(os.path.join(folder, f), repo).replace(os.sep, "/")
                  for f in files if f.endswith(".py")]
    return sorted(found)


def _raise(error):
    raise error


def _module_file(known, base, dotted):
    """The file of module `dotted` under folder `base` (relative, "" for the top), or None."""
    stem = "/".join(p for p in [base] + dotted.split(".") if p)
    for candidate in (stem + ".py", stem + "/__init__.py"):
        if candidate in known:
            return candidate
    return None


def _imported_names(tree):
    """(level, module, [names]) of every import statement, those in function bodies included."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield 0, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            yield node.level, node.module or "", [alias.name for alias in node.names]


def imports_of(repo, relpath, known, roots):
    """The files of the tree that relpath imports: `from X import Y` names X.Y when that is a module, else X."""
    with open(os.path.join(repo, relpath), encoding="utf-8") as f:
        text = f.read()
    try:
        tree = ast.parse(text, relpath)
    except SyntaxError as e:
        raise UnparsableFile("%s:%s: %s" % (relpath, e.lineno, e.msg))
    here = os.path.dirname(relpath)
    targets = set()
    for level, module, names in _imported_names(tree):
        if level:
            bases = [here]
            for _ in range(level - 1):
                bases = [os.path.dirname(bases[0])]
        else:
            bases = [here] + list(roots)
        for base in bases:
            dotted = [".".join(p for p in (module, name) if p) for name in names] or [module]
            found = [_module_file(known, base, d) for d in dotted if d]
            found = [f for f in found if f] or ([_module_file(known, base, module)] if module else [])
            found = [f for f in found if f]
            if found:
                targets.update(f for f in found if f != relpath)
                break
    return targets


def strongly_connected(graph):
    """Tarjan's strongly connected components of {node: set(nodes)} with two or more nodes, each sorted."""
    index, low, stack, on_stack, result = {}, {}, [], set(), []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        result.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(result)


def circle_path(graph, component):
    """A shortest closed path through the component from its first file back to it (breadth first)."""
    members, start = set(component), component[0]
    previous, queue = {start: None}, [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(graph[node] & members):
            if child == start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return path[::-1] + [start]
            if child not in previous:
                previous[child] = node
                queue.append(child)
    return component + [start]  # not reached: a component of two or more files holds a circle through each


def import_circles(repo, roots):
    """(number of Python files read, one breach line per circle). roots: import roots relative to repo."""
    files = python_files(repo)
    known = set(files)
    graph = {f: imports_of(repo, f, known, roots) for f in files}
    return len(files), ["import circle: %s" % " -> ".join(circle_path(graph, c))
                        for c in strongly_connected(graph)]
