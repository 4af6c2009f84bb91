import {line} from "./shapes.js";

export default line({word: "modular", label: "Modular line", colour: "#20a8a8", width: 0.22, least: 3});
