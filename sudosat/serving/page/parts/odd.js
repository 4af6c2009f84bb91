import {mark} from "./shapes.js";

export default mark({word: "odd", label: "Odd", shape: "circle"});
