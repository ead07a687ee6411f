// Updates that keep your place: the next screen is built whole (with dom.js's h), then the
// page is changed into it node by node, keeping every node that stays. A kept node keeps
// its scroll position, focus, hover, text selection and the open/closed state a person gave
// it; only what changed is touched.
//
// Children are matched by key when they have one (id, data-key, data-seat, data-card, in
// that order; a repeated key is told apart by its rank), else by tag in order.

import { dispatch } from "./dom.js";

function keyOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  if (node.id) return `#${node.id}`;
  for (const name of ["data-key", "data-seat", "data-card"]) {
    const value = node.getAttribute(name);
    if (value !== null) return `${node.nodeName}|${name}=${value}`;
  }
  return null;
}

function keysOf(nodes) {
  const seen = new Map();
  return nodes.map((node) => {
    const key = keyOf(node);
    if (key === null) return null;
    const rank = seen.get(key) || 0;
    seen.set(key, rank + 1);
    return rank ? `${key}~${rank}` : key;
  });
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeName === "INPUT" && a.type !== b.type) return false;
  return true;
}

// Attributes a person changes by using the page: left as they are on a kept node.
function personal(el, name) {
  return el.nodeName === "DETAILS" && name === "open";
}

function patchAttributes(old, next) {
  for (const { name } of [...old.attributes]) {
    if (!next.hasAttribute(name) && !personal(old, name)) old.removeAttribute(name);
  }
  for (const { name, value } of [...next.attributes]) {
    if (personal(old, name)) continue;
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  // Handlers and data that dom.js keeps on the element itself.
  old.__on = next.__on;
  if (next.__on) for (const type of Object.keys(next.__on)) old.addEventListener(type, dispatch);
  for (const prop of ["__action", "__step"]) {
    if (prop in next) old[prop] = next[prop];
    else delete old[prop];
  }
}

function patchValue(old, next) {
  if (old === document.activeElement) return; // never type over a person
  if ("value" in next && (old.nodeName === "INPUT" || old.nodeName === "SELECT" || old.nodeName === "TEXTAREA")) {
    if (old.value !== next.value) old.value = next.value;
  }
  if (old.nodeName === "INPUT" && (old.type === "checkbox" || old.type === "radio") && old.checked !== next.checked) old.checked = next.checked;
}

function patchNode(old, next) {
  if (old.nodeType === Node.TEXT_NODE || old.nodeType === Node.COMMENT_NODE) {
    if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
    return;
  }
  patchAttributes(old, next);
  patchChildren(old, next);
  patchValue(old, next);
}

// Make `old`'s children into `next`'s (taking `next`'s nodes where nothing can be kept).
export function patchChildren(old, next) {
  const olds = [...old.childNodes];
  const nexts = [...next.childNodes];
  const oldKeys = keysOf(olds);
  const nextKeys = keysOf(nexts);
  const byKey = new Map();
  const loose = [];
  olds.forEach((node, i) => (oldKeys[i] === null ? loose.push(node) : byKey.set(oldKeys[i], node)));
  let cursor = 0;
  const wanted = nexts.map((node, i) => {
    let match = null;
    if (nextKeys[i] !== null) {
      match = byKey.get(nextKeys[i]) || null;
      if (match) byKey.delete(nextKeys[i]);
    } else {
      for (let j = cursor; j < loose.length; j++) {
        if (sameKind(loose[j], node)) {
          match = loose[j];
          cursor = j + 1;
          break;
        }
      }
    }
    if (match && sameKind(match, node)) {
      patchNode(match, node);
      return match;
    }
    return node;
  });
  const keep = new Set(wanted);
  for (const node of olds) if (!keep.has(node)) old.removeChild(node);
  wanted.forEach((node, i) => {
    const at = old.childNodes[i];
    if (at !== node) old.insertBefore(node, at || null);
  });
}
