import {outside} from "./shapes.js";

export default outside({word: "sandwich", label: "Sandwich"});
