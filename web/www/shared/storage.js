// What the page keeps in this browser (localStorage), as JSON under
// "mollett-..." keys. A browser that refuses storage (private mode, a full
// quota) keeps nothing, and the page goes on without it.

export function load(key, fallback = null) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch (e) {
    return fallback;
  }
}

export function save(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch (e) {
    return false; // private mode or a full quota: not kept
  }
}

export function remove(key) {
  try { localStorage.removeItem(key); } catch (e) { /* nothing kept anyway */ }
}
