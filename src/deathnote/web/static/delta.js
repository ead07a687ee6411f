// The operations of the server's state patches (deathnote.engine.delta): "set" a value
// at a path (a list position equal to its length appends), "del" an object key, "cut" a
// list to a length.
export function applyPatch(value, ops) {
  for (const [kind, path, arg] of ops) {
    if (kind === "set" && path.length === 0) {
      value = structuredClone(arg);
      continue;
    }
    let target = value;
    for (const step of path.slice(0, -1)) target = target[step];
    const key = path[path.length - 1];
    if (kind === "set") {
      if (Array.isArray(target) && key === target.length) target.push(structuredClone(arg));
      else target[key] = structuredClone(arg);
    } else if (kind === "del") delete target[key];
    else if (kind === "cut") (path.length ? target[key] : target).length = arg;
  }
  return value;
}
