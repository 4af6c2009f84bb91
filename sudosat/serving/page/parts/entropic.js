import {line} from "./shapes.js";

export default line({word: "entropic", label: "Entropic line", colour: "#f0a030", width: 0.22, least: 3});
