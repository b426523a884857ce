// The page's languages (languages.js lists them).  This module only passes the list on:
// it puts the tables one step later in the page's loading, after cards.js, so that the
// browser never asks for more than four files at once (tests/js/load.test.mjs).
export { default } from "./languages.js";
