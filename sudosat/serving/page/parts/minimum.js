import {mark} from "./shapes.js";

export default mark({word: "minimum", label: "Minimum", shape: "down"});
