// Every table the page speaks, code -> {name (in itself), table}.  To add a language:
// copy en.js, translate it, and list it here; tests/js/i18n.test.mjs says what is missing.

import en from "./en.js";
import de from "./de.js";
import es from "./es.js";
import fr from "./fr.js";

export default {
  en: { name: "English", table: en },
  de: { name: "Deutsch", table: de },
  es: { name: "Español", table: es },
  fr: { name: "Français", table: fr },
};
