// Small DOM helpers of our own: every text goes through textContent, never innerHTML.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key.startsWith("on")) listen(el, key.slice(2), value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// Handlers live on the element (el.__on) behind one shared listener, so that an update that
// keeps a node (patch.js) can hand it the new view's handlers.
export function dispatch(event) {
  const handler = this.__on && this.__on[event.type];
  if (handler) return handler.call(this, event);
  return undefined;
}

export function listen(el, type, handler) {
  el.__on = el.__on || {};
  el.__on[type] = handler;
  el.addEventListener(type, dispatch);
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function tokenFromUrl() {
  return new URLSearchParams(window.location.search).get("token") || "";
}

export function roomIdFromUrl() {
  const parts = window.location.pathname.split("/").filter(Boolean);
  return parts[parts.length - 1];
}

export function absolute(path) {
  return new URL(path, window.location.origin).toString();
}

export function copyButton(text) {
  const button = h("button", { type: "button", class: "small" }, "Copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select and copy";
    }
  });
  return button;
}

export async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || data.detail || `HTTP ${response.status}`);
  return data;
}

// A readable name for a JSON key: "kira_points_by_type" -> "Kira points by type".
export function humanKey(key) {
  const text = String(key).replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The page shown instead of a room when its link cannot open it (a wrong, foreign or
// expired link, or a room this server cannot restore): what happened and a way on.
export function deadEnd(root, reason) {
  clear(root);
  root.append(
    h(
      "section",
      { class: "panel dead-end", role: "alert" },
      h("h2", {}, "This link does not open a game"),
      h("p", {}, reason || "The room is unknown here, or the link is wrong or has expired."),
      h("p", { class: "muted" }, "Ask whoever made the room for a fresh link, or start a new game."),
      h("p", {}, h("a", { href: "/" }, "Start a new game")),
    ),
  );
}
