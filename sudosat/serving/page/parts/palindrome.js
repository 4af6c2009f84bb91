import {line} from "./shapes.js";

export default line({word: "palindrome", label: "Palindrome", colour: "#9c6b3f", width: 0.22});
