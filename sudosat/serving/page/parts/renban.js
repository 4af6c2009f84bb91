import {line} from "./shapes.js";

export default line({word: "renban", label: "Renban line", colour: "#c678dd", width: 0.3});
