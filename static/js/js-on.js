/* Marks the page as running scripts ("js" on <html>) before its body is drawn,
   so that styles can hide what only matters without JavaScript. Loaded
   without defer, in the head. */
document.documentElement.className += " js";
